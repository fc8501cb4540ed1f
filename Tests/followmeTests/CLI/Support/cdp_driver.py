#!/usr/bin/env python3
"""Drives a headless Chromium for the cockpit's browser test, as a person's phone would be driven.

Usage: cdp_driver.py CHROMIUM PROFILE_DIR CONTROL_SOCKET WIDTH HEIGHT

Starts CHROMIUM headless with its DevTools protocol on a loopback port Chromium picks (read from
PROFILE_DIR/DevToolsActivePort), emulates a phone screen of WIDTH x HEIGHT CSS pixels (touch, device
scale 2), and serves JSON lines on the Unix socket CONTROL_SOCKET, one request, one answer:
  {"navigate": URL}             -> {"ok": true} once the page loaded
  {"eval": JS}                  -> {"value": <the expression's value, promises awaited>} or {"error": ...}
  {"screenshot": PATH}          -> {"ok": true}, the viewport as PNG at PATH
  {"viewport": [WIDTH, HEIGHT]} -> {"ok": true}, the phone screen emulated from now on (the next navigation loads at it)
  {"console": true}             -> {"value": [console messages and exceptions so far]}
  {"quit": true}                -> {"ok": true}, then Chromium is stopped
Prints "ready" on stdout once the socket listens. Network: loopback only (the test's URLs).
"""
import base64
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

import websocket  # websocket-client, pinned by scripts/ensure-deps.sh --test


def main():
    chromium, profile, control, width, height = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
    os.makedirs(profile, exist_ok=True)
    port_file = os.path.join(profile, "DevToolsActivePort")
    if os.path.exists(port_file):
        os.remove(port_file)
    # --no-sandbox: the tests may run as root; --disable-dev-shm-usage: containers often have a tiny /dev/shm.
    browser = subprocess.Popen([
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars",
        "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0", f"--user-data-dir={profile}",
        "--no-first-run", "--no-default-browser-check", "about:blank",
    ], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.time() + 60
        while not os.path.exists(port_file) or not open(port_file).read().strip():
            if time.time() > deadline or browser.poll() is not None:
                sys.exit("chromium did not open its DevTools port")
            time.sleep(0.1)
        port = int(open(port_file).read().split()[0])
        pages = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=10))
        page = next(p for p in pages if p.get("type") == "page")
        ws = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)
        session = Session(ws)
        session.call("Page.enable")
        session.call("Runtime.enable")
        session.call("Emulation.setDeviceMetricsOverride",
                     {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
        session.call("Emulation.setTouchEmulationEnabled", {"enabled": True})
        serve(session, control)
    finally:
        browser.terminate()
        try:
            browser.wait(5)
        except subprocess.TimeoutExpired:
            browser.kill()


class Session:
    def __init__(self, ws):
        self.ws, self.next_id, self.console = ws, 0, []

    def call(self, method, params=None, timeout=30):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params or {}}))
        deadline = time.time() + timeout
        while time.time() < deadline:
            message = json.loads(self.ws.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result", {})
            self.note(message)
        raise TimeoutError(method)

    def note(self, event):
        method = event.get("method")
        if method == "Runtime.consoleAPICalled":
            args = event["params"].get("args", [])
            self.console.append(" ".join(str(a.get("value", a.get("description", ""))) for a in args))
        elif method == "Runtime.exceptionThrown":
            self.console.append("exception: " + event["params"]["exceptionDetails"].get("text", "?"))
        elif method == "Page.loadEventFired":
            self.loaded = True

    def navigate(self, url):
        self.loaded = False
        self.call("Page.navigate", {"url": url})
        deadline = time.time() + 30
        while not self.loaded and time.time() < deadline:
            self.ws.settimeout(1)
            try:
                self.note(json.loads(self.ws.recv()))
            except websocket.WebSocketTimeoutException:
                pass
        self.ws.settimeout(30)
        return self.loaded


def serve(session, control):
    if os.path.exists(control):
        os.remove(control)
    server = socket.socket(socket.AF_UNIX)
    server.bind(control)
    server.listen(1)
    print("ready", flush=True)
    conn, _ = server.accept()
    stream = conn.makefile("rw")
    for line in stream:
        request = json.loads(line)
        try:
            if "navigate" in request:
                answer = {"ok": session.navigate(request["navigate"])}
            elif "eval" in request:
                result = session.call("Runtime.evaluate", {"expression": request["eval"], "returnByValue": True,
                                                           "awaitPromise": True})
                if "exceptionDetails" in result:
                    answer = {"error": result["exceptionDetails"].get("text", "exception")}
                else:
                    answer = {"value": result.get("result", {}).get("value")}
            elif "viewport" in request:
                width, height = request["viewport"]
                session.call("Emulation.setDeviceMetricsOverride",
                             {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
                answer = {"ok": True}
            elif "screenshot" in request:
                shot = session.call("Page.captureScreenshot", {"format": "png"})
                with open(request["screenshot"], "wb") as f:
                    f.write(base64.b64decode(shot["data"]))
                answer = {"ok": True}
            elif "console" in request:
                answer = {"value": session.console}
            elif "quit" in request:
                stream.write(json.dumps({"ok": True}) + "\n")
                stream.flush()
                return
            else:
                answer = {"error": "unknown request"}
        except Exception as e:  # the test reads the error; the driver keeps serving
            answer = {"error": str(e)}
        stream.write(json.dumps(answer) + "\n")
        stream.flush()


if __name__ == "__main__":
    main()
