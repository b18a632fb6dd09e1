"""Jupyter notebooks: the code cells are analysed together, in order, as one module (a model
defined in cell 2 is known in cell 5), and findings are reported by cell and line.

- `cells`: IPython syntax masked without moving a line or a column, cells joined into one
  text and findings split back per cell (shared with the language server, whose cells come
  from the editor);
- `ipynb`: the .ipynb file: reading it with the position of every cell's source in the JSON
  text, and writing changed cells back without touching another byte;
- `check`: `gradlint check` on a notebook: check, fix, diff.
"""
