package lock

import "strings"

// hashSlot returns the Redis Cluster slot of key: CRC16 (XMODEM) of the hash
// tag if the key has a non-empty one, of the whole key otherwise, mod 16384.
func hashSlot(key string) uint16 {
	return crc16(hashTag(key)) % 16384
}

// hashTag returns the part of key that Redis Cluster hashes: the text between
// the first '{' and the first '}' after it, when that text is non-empty.
func hashTag(key string) string {
	open := strings.IndexByte(key, '{')
	if open < 0 {
		return key
	}
	end := strings.IndexByte(key[open+1:], '}')
	if end <= 0 {
		return key
	}
	return key[open+1 : open+1+end]
}

// siblingKey derives a companion key (fence counter, waiter queue) that hashes
// to the same Cluster slot as key. A key with a hash tag keeps it and gets the
// suffix appended ("lock:{sku42}" -> "lock:{sku42}:fence"); a key without one
// is wrapped into a tag, which hashes to the same slot because the tag's
// content is the whole original key ("feed" -> "{feed}:fence"). The caller
// still checks the slots: a key such as "a{}b" cannot be wrapped.
func siblingKey(key, suffix string) string {
	if hashTag(key) != key {
		return key + ":" + suffix
	}
	return "{" + key + "}:" + suffix
}

var crcTable = func() (t [256]uint16) {
	for i := range t {
		c := uint16(i) << 8
		for range 8 {
			if c&0x8000 != 0 {
				c = c<<1 ^ 0x1021
			} else {
				c <<= 1
			}
		}
		t[i] = c
	}
	return t
}()

func crc16(s string) uint16 {
	var c uint16
	for i := 0; i < len(s); i++ {
		c = c<<8 ^ crcTable[byte(c>>8)^s[i]]
	}
	return c
}
