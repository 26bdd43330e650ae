# Helpers for the browser, beside engine/: DOM nodes as text only (dom.py), timers and
# animation frames (clock.py), which screen shows (screen_switch.py).
