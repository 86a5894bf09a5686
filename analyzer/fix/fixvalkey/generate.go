package fixvalkey

//go:generate go run ./internal/gen
