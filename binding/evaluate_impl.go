package binding

func evaluate(s *Snapshot) Result { return Result{} }
