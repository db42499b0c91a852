"""Hostile virus bot. Attacks: the Docker engine, which would give it the
host. It looks for the engine's and containerd's sockets where they usually
are, for any Unix socket anywhere in the filesystem, for DOCKER_HOST, and
connects to whatever it finds. Contained: there is nothing to find."""
import os
import socket
import stat

KNOWN = ["/var/run/docker.sock", "/run/docker.sock", "/run/containerd/containerd.sock",
         "/var/run/docker/containerd/containerd.sock", "/run/podman/podman.sock"]
SKIP = {"/proc", "/sys", "/usr"}


def connects(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        s.settimeout(0.5)
        s.connect(path)
        return True
    except OSError:
        return False
    finally:
        s.close()


def attack():
    found = [p for p in KNOWN if os.path.lexists(p)]
    for top, dirs, files in os.walk("/"):
        dirs[:] = [d for d in dirs if os.path.join(top, d) not in SKIP]
        for name in files:
            path = os.path.join(top, name)
            try:
                if stat.S_ISSOCK(os.lstat(path).st_mode):
                    found.append(path)
            except OSError:
                pass
    connected = [p for p in found if connects(p)]
    return "found=%s connected=%s docker_host=%s" % (found, connected, os.environ.get("DOCKER_HOST"))


def ia(game, side):
    if len(game["history"]) < 2:
        print("ATTACK docker_socket: " + attack())
    return False
