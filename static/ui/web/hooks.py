# A hook: one happening that parts built later answer. The part that says it happened
# is given the hook when it is built; page_boot.py, which builds every part, joins the
# answers to it (to(fn)). So two parts that need each other get no reference to each
# other: the navigation says "the language changed" and each part relabels itself; the
# controller says "a move was answered" and the coach reads it.


class Hook:
    def __init__(self):
        self.answers = []

    def to(self, fn):
        """``fn`` answers the hook (after the answers joined before it)."""
        self.answers.append(fn)

    def __call__(self, *args):
        """Call every answer with ``args``; returns the first answer's result that is not
        None (a question such as "does a part block the dice?"), else None."""
        found = None
        for fn in self.answers:
            out = fn(*args)
            if found is None:
                found = out
        return found
