# The page's assembly, the top layer: the boot (page_boot.py builds every part and gives
# each the others it works with), the address and the language (navigation.py), the
# keyboard and pointer (page_input.py, keys.py, keymap.py), the one-tap first game.
