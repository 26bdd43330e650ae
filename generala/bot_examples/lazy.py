def play(turn):
    return turn.best()
