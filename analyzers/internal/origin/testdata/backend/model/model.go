package model // want `module code: backend/model`

type User struct{ Email string }
