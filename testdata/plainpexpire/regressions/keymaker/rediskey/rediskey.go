// Package rediskey makes the service's keys, one function per kind.
package rediskey

// GuildTokenLock is a rate counter's key, whatever its name says.
func GuildTokenLock(guild, token string) string {
	return "automuteus:muterequest:lock:" + guild + ":" + token
}

func VoiceLock(code string) string {
	return "automuteus:voice:lock:" + code
}
