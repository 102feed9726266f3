module backend

go 1.26.0
