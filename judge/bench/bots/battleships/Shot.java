// Bench program bot: one process per request, answering at once.
public class Shot {
    public static void main(String[] args) {
        System.out.println("{\"move\": \"00\"}");
    }
}
