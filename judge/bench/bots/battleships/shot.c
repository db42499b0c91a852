/* Bench program bot: one process per request, answering at once. */
#include <stdio.h>

int main(void) {
    puts("{\"move\": \"00\"}");
    return 0;
}
