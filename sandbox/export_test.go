package sandbox

// Received is how many bytes the judge received from s's harnesses.
func Received(s Session) int64 { return s.(*session).received.Load() }
