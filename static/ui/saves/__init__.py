# The saved games, beside the players: the store (saves.py), the home screen's lists
# (saved_games.py, save_lists.py), export and import (transfer.py).
