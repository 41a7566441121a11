"""The ledger's forms: a hand of French Tarot (``hands``) and of the Savoyard rules
(``savoyard``), a new sheet (``sheets``) and a sheet's details (``editing``)."""
