package lockmodel

// IsClientPath reports whether path is a Redis client package the model
// understands. Drivers use it to decide which dependencies need syntax.
func IsClientPath(path string) bool {
	_, ok := clientPaths[path]
	return ok
}
