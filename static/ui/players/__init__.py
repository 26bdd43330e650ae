# Who plays and who helps, beside the saves: the players' bar (bar.py), the computer
# players (computer.py, botseat.py) and the coach (coach_panel.py). They draw their parts
# of the board (board/) and talk to the engine (engine/).
