# English as written in Europe, where French Tarot is played: 14 Mar 2026, 14/03/2026.
DATE_FORMAT = "j M Y"
SHORT_DATE_FORMAT = "d/m/Y"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
TIME_FORMAT = "H:i"
DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d/%m/%Y", "%d/%m/%y"]
FIRST_DAY_OF_WEEK = 1
