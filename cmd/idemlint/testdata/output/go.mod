module example.com/output

go 1.26.0
