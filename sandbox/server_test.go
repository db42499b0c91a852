package sandbox_test

import (
	"strings"
	"testing"
	"time"

	"botjudge/games/fault"
)

// serverPy is a botsArena bot served over HTTP on $PORT; what it does with
// each message depends on the message's "do".
const serverPy = `
import http.server, json, os, sys, time

class Bot(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        msg = json.loads(body)
        do = msg.get("do")
        if do == "fail":
            self.send_response(500)
            self.end_headers()
            self.wfile.write(b"Fatal error: oops")
            return
        if do == "exit":
            os._exit(3)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        if do == "stall":
            self.wfile.flush()
            time.sleep(60)
        elif do == "huge":
            self.wfile.write(b" " * (1 << 20))
        else:
            self.wfile.write(json.dumps({"play": msg, "path": self.path, "type": self.headers["Content-Type"]}).encode())

    def log_message(self, *args):
        print("served", file=sys.stderr)

http.server.ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), Bot).serve_forever()
`

// A bot folder serving HTTP (serve.sh on $PORT, or a PHP index.php as
// botsArena's bots are) is started once per game and gets every message as
// a POST; its failures are faults as any bot's.
func TestServerBots(t *testing.T) {
	eachRunner(t, func(t *testing.T, r runner) {
		t.Run("serve.sh", func(t *testing.T) {
			t.Parallel()
			s := start(t, r, writeBot(t, "served/", "program", map[string]string{"serve.sh": "exec python3 bot.py\n", "bot.py": serverPy}), limits(2*time.Second))
			wantOK(t, ask(t, s, `{"action":"init","n":1}`), `{"play":{"action":"init","n":1},"path":"/","type":"application/json"}`)
			wantOK(t, ask(t, s, `{"action":"play-turn","é":2}`), `{"play":{"action":"play-turn","\u00e9":2},"path":"/","type":"application/json"}`)
			wantFault(t, ask(t, s, `{"do":"fail"}`), fault.Error, `the server answered 500 Internal Server Error: b'Fatal error: oops'`)
			wantFault(t, ask(t, s, `{"do":"huge"}`), fault.Output, "more than 65536 bytes in the answer's body")
			wantFault(t, ask(t, s, `{"do":"stall"}`), fault.Timeout, "")
			// The server is the same process all game long: after a fault it
			// still answers, until it exits.
			wantFault(t, ask(t, s, `{"do":"exit"}`), fault.Crash, "")
			if log := closedLog(t, s); !strings.Contains(log, "served") {
				t.Errorf("the server's own output is not in the log: %q", log)
			}
		})
		t.Run("index.php", func(t *testing.T) {
			t.Parallel()
			php := "<?php\n$in = json_decode(file_get_contents('php://input'), true);\n" +
				"header('Content-Type: application/json');\necho json_encode(['play' => $in['board'][1]]);\n"
			s := start(t, r, writeBot(t, "arena/", "program", map[string]string{"index.php": php}), limits(5*time.Second))
			wantOK(t, ask(t, s, `{"action":"play-turn","board":["a","b"]}`), `{"play":"b"}`)
		})
		t.Run("never listens", func(t *testing.T) {
			t.Parallel()
			lim := limits(time.Second)
			lim.Startup = time.Second
			s := start(t, r, writeBot(t, "deaf/", "program", map[string]string{"serve.sh": "sleep 30\n"}), lim)
			wantFault(t, ask(t, s, `{}`), fault.Timeout, "the server did not listen on port")
		})
	})
}
