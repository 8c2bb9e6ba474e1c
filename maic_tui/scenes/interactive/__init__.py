"""An interactive scene: a widget the learner works (a simulation's variables, a diagram revealed node by node)."""
