// Package binding computes the status conditions of Agent Kourier's
// Binding objects from one snapshot of the world.
package binding
