module example.com/migrations

go 1.26.0
