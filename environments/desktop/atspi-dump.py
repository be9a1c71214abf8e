# Dumps the accessibility trees (AT-SPI) of every application on this session's bus as one JSON object:
# {"nodes": [{"role", "name", "bounds": [x0, y0, x1, y1] (screen pixels), "states": [...], "text"?, "app"}]}.
# Only nodes that are showing and have an area are kept (what a person could see). Run with Debian's python3.
import json
import sys

import pyatspi

KEEP_STATES = {
    pyatspi.STATE_FOCUSED: "focused",
    pyatspi.STATE_CHECKED: "checked",
    pyatspi.STATE_SELECTED: "selected",
    pyatspi.STATE_EDITABLE: "editable",
    pyatspi.STATE_SENSITIVE: "sensitive",
    pyatspi.STATE_ACTIVE: "active",
}
MAX_NODES = 4000
MAX_DEPTH = 60
# Large tables (spreadsheets) expose thousands of cells: visit at most this many children of one node.
MAX_CHILDREN = 400


def walk(acc, app, depth, out):
    if depth > MAX_DEPTH or len(out) >= MAX_NODES or acc is None:
        return
    try:
        states = acc.getState()
        showing = states.contains(pyatspi.STATE_SHOWING)
        if not showing and depth > 1:
            return
        ext = None
        try:
            ext = acc.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)
        except NotImplementedError:
            pass
        if showing and ext is not None and ext.width > 0 and ext.height > 0:
            node = {
                "app": app,
                "role": acc.getRoleName(),
                "name": (acc.name or "")[:160],
                "bounds": [ext.x, ext.y, ext.x + ext.width, ext.y + ext.height],
                "states": [label for s, label in KEEP_STATES.items() if states.contains(s)],
            }
            try:
                text = acc.queryText()
                node["text"] = text.getText(0, min(text.characterCount, 400))
            except NotImplementedError:
                pass
            out.append(node)
        for i in range(min(acc.childCount, MAX_CHILDREN)):
            walk(acc.getChildAtIndex(i), app, depth + 1, out)
    except Exception:  # a node that vanished mid-walk is skipped, never fatal
        return


def main():
    desktop = pyatspi.Registry.getDesktop(0)
    out = []
    for i in range(desktop.childCount):
        app = desktop.getChildAtIndex(i)
        if app is not None:
            walk(app, app.name or "", 0, out)
    json.dump({"nodes": out}, sys.stdout)


main()
