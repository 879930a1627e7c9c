"""pytest collects the tutorials here (nbval); copies that `jupyter nbconvert --execute`
writes beside them (`NAME.nbconvert.ipynb`) are outputs, not tutorials."""

collect_ignore_glob = ["*.nbconvert.ipynb"]
