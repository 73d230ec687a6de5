"""The layers as an incremental replay runs them: on the history it carries from call to call
(model/running.py), changed in place, each looking only at what the call's new messages changed. Each
gives, call by call, exactly what the plain layer (one level up) gives on the whole history; the
replay's equivalence tests compare the two."""
