# Time for the page's objects: timers and animation frames, each with ONE fixed proxy
# (MicroPython's create_proxy per call would leak). The controller and the computer
# players are given a Clock; the CPython tests give them a fake one that they advance.
#
#   clock.timer(fn)   a Timer: start(ms) runs fn() once after ms (a new start replaces
#                     the one waiting), stop() cancels it, waiting() says if one waits
#   clock.frame(fn)   a Frame: request() runs fn() at the next animation frame
import js
from jsffi import create_proxy


class Timer:
    def __init__(self, fn):
        self.fn = fn
        self.handle = None
        self.proxy = create_proxy(self.fire)

    def fire(self, *args):
        self.handle = None
        self.fn()

    def start(self, ms=0):
        self.stop()
        self.handle = js.setTimeout(self.proxy, ms)

    def stop(self):
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
