"""Gathering a command's inputs: `inputs.gather` reads the files named, says what each document
is (prio.io) and claims it for its scheduler (a backend's documents for prio.backends' row,
YuniKorn's read by prio.yunikorn.load into one `Inputs`); `live` reads a running YuniKorn's REST
API and `restdump` a directory of saved responses, as the same Inputs. Above every scheduler's
slice, below the commands; no printing, and no lint rule."""
