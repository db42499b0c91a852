# The load test's bot (SPEC §5, load): plays the middle free cell, and on
# every other move first spends THINK seconds, of CPU or (SLEEP) asleep. It
# decides the same way given the same request, so the games it plays are
# the same on a quiet machine and on a busy one.
import json
import sys
import time

THINK = 0.3
SLEEP = False

req = json.loads(sys.argv[1] if len(sys.argv) > 1 and sys.argv[1].strip() else sys.stdin.read())
if req.get("action") == "init":
    print('{"name": "load"}')
    sys.exit(0)
free = sorted(cell for cell, mark in req["board"].items() if mark == "")
if len(free) % 2:
    end = time.process_time() + THINK
    while not SLEEP and time.process_time() < end:
        pass
    time.sleep(THINK if SLEEP else 0)
print(json.dumps({"play": free[len(free) // 2]}))
