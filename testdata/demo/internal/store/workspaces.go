package store

import (
	"context"
	"time"

	"gorm.io/gorm"
	"gorm.io/plugin/optimisticlock"
)

// Workspace is a team's account. Version makes GORM updates of a loaded
// workspace fail (zero rows) when someone else changed it in between.
type Workspace struct {
	ID        int64                  `json:"id"`
	Name      string                 `json:"name"`
	Plan      string                 `json:"plan"`
	Version   optimisticlock.Version `json:"version"`
	CreatedAt time.Time              `json:"created_at"`
	UpdatedAt time.Time              `json:"updated_at"`
}

// Device is a phone or browser registered for push notifications.
type Device struct {
	ID          int64     `json:"id"`
	WorkspaceID int64     `json:"workspace_id"`
	UserID      int64     `json:"user_id"`
	Token       string    `gorm:"uniqueIndex" json:"-"`
	Platform    string    `json:"platform"`
	CreatedAt   time.Time `json:"created_at"`
}

// WorkspaceStore keeps workspaces and their members' devices.
type WorkspaceStore struct {
	db *gorm.DB
}

// NewWorkspaceStore returns a WorkspaceStore on db.
func NewWorkspaceStore(db *gorm.DB) *WorkspaceStore {
	return &WorkspaceStore{db: db}
}

// Get returns the workspace with the given id.
func (s *WorkspaceStore) Get(ctx context.Context, id int64) (*Workspace, error) {
	var ws Workspace
	if err := s.db.WithContext(ctx).First(&ws, id).Error; err != nil {
		return nil, gormNotFound(err)
	}
	return &ws, nil
}

// Rename changes the display name of a workspace.
func (s *WorkspaceStore) Rename(ctx context.Context, id int64, name string) error {
	res := s.db.WithContext(ctx).Model(&Workspace{}).Where("id = ?", id).Update("name", name)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// ChangePlan moves a workspace to another billing plan.
func (s *WorkspaceStore) ChangePlan(ctx context.Context, id int64, plan string) (*Workspace, error) {
	db := s.db.WithContext(ctx)
	var ws Workspace
	if err := db.First(&ws, id).Error; err != nil {
		return nil, gormNotFound(err)
	}
	res := db.Model(&ws).Update("plan", plan)
	if res.Error != nil {
		return nil, res.Error
	}
	if res.RowsAffected == 0 {
		return nil, ErrConflict
	}
	return &ws, nil
}

// RegisterDevice records a push-notification token of a workspace member
// and returns the device it belongs to.
func (s *WorkspaceStore) RegisterDevice(ctx context.Context, workspaceID, userID int64, token, platform string) (*Device, error) {
	var d Device
	err := s.db.WithContext(ctx).
		Where(Device{Token: token}).
		Attrs(Device{WorkspaceID: workspaceID, UserID: userID, Platform: platform}).
		FirstOrCreate(&d).Error
	if err != nil {
		return nil, err
	}
	return &d, nil
}
