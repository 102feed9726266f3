module gorm.io/plugin/optimisticlock

go 1.18

require gorm.io/gorm v1.25.11

require (
	github.com/jinzhu/inflection v1.0.0 // indirect
	github.com/jinzhu/now v1.1.5 // indirect
)
