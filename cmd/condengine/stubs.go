package main

func runDemo(e env, args []string) int { return usageError(e, "demo", "not built yet") }
func runEval(e env, args []string) int { return usageError(e, "eval", "not built yet") }
