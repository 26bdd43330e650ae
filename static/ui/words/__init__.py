# The page's words, the bottom layer: words.py looks them up in the chosen language; one
# module of plain data a language (words_en.py, words_es.py, words_bg.py, words_ru.py).
