package store

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
)

// Article is a published blog post.
type Article struct {
	ID        int64     `json:"id"`
	Slug      string    `gorm:"uniqueIndex" json:"slug"`
	Title     string    `json:"title"`
	Body      string    `json:"body"`
	Views     int64     `json:"views"`
	Likes     int64     `json:"likes"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

// Tag labels articles.
type Tag struct {
	ID   int64  `json:"id"`
	Name string `gorm:"uniqueIndex" json:"name"`
}

// ArticleStore keeps articles and their tags.
type ArticleStore struct {
	db *gorm.DB
}

// NewArticleStore returns an ArticleStore on db.
func NewArticleStore(db *gorm.DB) *ArticleStore {
	return &ArticleStore{db: db}
}

// RecordView counts one view of the article and returns it.
func (s *ArticleStore) RecordView(ctx context.Context, slug string) (*Article, error) {
	db := s.db.WithContext(ctx)
	var a Article
	if err := db.Where("slug = ?", slug).First(&a).Error; err != nil {
		return nil, gormNotFound(err)
	}
	a.Views++
	if err := db.Save(&a).Error; err != nil {
		return nil, err
	}
	return &a, nil
}

// Like adds one like to the article.
func (s *ArticleStore) Like(ctx context.Context, slug string) error {
	db := s.db.WithContext(ctx)
	var a Article
	if err := db.Where("slug = ?", slug).First(&a).Error; err != nil {
		return gormNotFound(err)
	}
	return db.Model(&a).UpdateColumn("likes", gorm.Expr("likes + ?", 1)).Error
}

// EnsureTag returns the tag called name, creating it if it does not exist.
func (s *ArticleStore) EnsureTag(ctx context.Context, name string) (*Tag, error) {
	db := s.db.WithContext(ctx)
	var t Tag
	err := db.Where(Tag{Name: name}).FirstOrCreate(&t).Error
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		// Created by another request after our lookup: use that one.
		err = db.Where(Tag{Name: name}).First(&t).Error
	}
	if err != nil {
		return nil, err
	}
	return &t, nil
}

func gormNotFound(err error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ErrNotFound
	}
	return err
}
