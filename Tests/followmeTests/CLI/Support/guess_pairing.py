"""Guesses a cockpit's pairing code as an attacker on the same network would: from many source
addresses (127.0.x.y, all loopback), with several threads, for a bounded time, walking the code
space in order (0000, 0001, ...) through POST /pair and POST /command with a "code".

    python3 guess_pairing.py PORT SECONDS DIGITS

Prints one JSON object: the requests made, the answers by status, whether any guess was accepted
(status 200), and how many distinct source addresses were used.
"""
import http.client
import itertools
import json
import sys
import threading
import time

port, seconds, digits = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3])
addresses = [f"127.0.{1 + k // 200}.{1 + k % 200}" for k in range(300)]
codes = itertools.count()
lock = threading.Lock()
statuses, accepted, used = {}, [], set()
deadline = time.monotonic() + seconds


def worker(index):
    n = index
    while time.monotonic() < deadline:
        with lock:
            guess = next(codes) % (10 ** digits)
        source = addresses[n % len(addresses)]
        n += 7
        code = f"{guess:0{digits}d}"
        if guess % 2 == 0:
            path, body = "/pair", json.dumps({"secret": code})
        else:
            path, body = "/command", json.dumps({"command": "start", "code": code})
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
            c.request("POST", path, body=body, headers={"Content-Type": "application/json"})
            r = c.getresponse()
            r.read()
            c.close()
        except OSError as error:
            with lock:
                statuses["error"] = statuses.get("error", 0) + 1
            continue
        with lock:
            used.add(source)
            statuses[str(r.status)] = statuses.get(str(r.status), 0) + 1
            if r.status == 200:
                accepted.append({"path": path, "code": code, "source": source})


threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps({"requests": sum(v for k, v in statuses.items() if k != "error"), "statuses": statuses,
                  "accepted": accepted, "sources": len(used)}))
