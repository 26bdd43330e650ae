# Time for the page's objects: timers and animation frames, each with ONE fixed proxy
# (MicroPython's create_proxy per call would leak). The controller and the computer
# players are given a Clock; the CPython tests give them a fake one that they advance.
#
#   clock.timer(fn)   a Timer: start(ms) runs fn() once after ms (a new start replaces
#                     the one waiting), stop() cancels it, waiting() says if one waits
#   clock.frame(fn)   a Frame: request() runs fn() at the next animation frame
import js
from pyscript.ffi import create_proxy


class Timer:
    # Each start is numbered and its number passed to the callback: a callback of a start
    # that was stopped or replaced does nothing, even when clearTimeout missed it (a timer
    # id past 2**31, as Playwright's fake clock gives, comes back to MicroPython wrapped
    # to another number).
    def __init__(self, fn):
        self.fn = fn
        self.handle = None
        self.started = 0
        self.proxy = create_proxy(self.fire)

    def fire(self, started=None, *args):
        if started != self.started or self.handle is None:
            return  # a start stopped or replaced since
        self.handle = None
        self.fn()

    def start(self, ms=0):
        self.stop()
        self.started += 1
        self.handle = js.setTimeout(self.proxy, ms, self.started)

    def stop(self):
        self.started += 1
        if self.handle is not None:
            js.clearTimeout(self.handle)
            self.handle = None

    def waiting(self):
        return self.handle is not None


class Frame:
    def __init__(self, fn):
        self.fn = fn
        self.proxy = create_proxy(lambda t: fn())

    def request(self):
        js.requestAnimationFrame(self.proxy)


class Clock:
    def timer(self, fn):
        return Timer(fn)

    def frame(self, fn):
        return Frame(fn)
