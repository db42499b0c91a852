"""Hostile bot, for virus (ia) and battleships (run as a program). Attacks:
the network. It lists the interfaces and routes, opens a raw socket, and
resolves a name only when nothing but loopback exists, so that no packet can
ever leave the machine. Contained: loopback only, no route, the resolver
fails, raw sockets are refused."""
import os
import socket


def attack():
    interfaces = sorted(os.listdir("/sys/class/net"))
    with open("/proc/net/route") as f:
        routes = [l for l in f.read().splitlines()[1:] if l.strip()]
    with open("/proc/net/ipv6_route") as f:
        routes += [l for l in f.read().splitlines() if l.split()[-1] != "lo"]
    resolve = "skipped"
    if interfaces == ["lo"] and not routes:
        try:
            socket.getaddrinfo("example.com", 80)
            resolve = "resolved"
        except OSError as exc:
            resolve = "error(%s)" % type(exc).__name__
    try:
        socket.socket(socket.AF_INET, socket.SOCK_RAW, socket.IPPROTO_ICMP).close()
        raw = "allowed"
    except OSError:
        raw = "denied"
    return "interfaces=%s routes=%d resolve=%s raw_socket=%s" % (interfaces, len(routes), resolve, raw)


def ia(game, side):
    if len(game["history"]) < 2:
        print("ATTACK network: " + attack())
    return False


if __name__ == "__main__":  # as a battleships program: one process per request
    import json
    import sys
    request = json.loads(sys.argv[1])
    if request["cmd"] == "init":
        print("ATTACK network: " + attack(), file=sys.stderr)
        print(json.dumps({str(n): {"point": "0%d" % (n - 2), "orientation": "horizontal"} for n in (2, 3, 4, 5)}))
    else:
        # hunter.js's fleet first: every hit shoots again, so games stay short.
        order = "61 62 13 23 33 74 75 76 77 26 36 46 56 66".split() + [c + r for c in "01234567" for r in "01234567"]
        shot = set(request["hit"]) | set(request["missed"])
        print(json.dumps({"move": next(cell for cell in order if cell not in shot)}))
