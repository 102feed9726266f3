module example.com/cgosvc

go 1.26.0
