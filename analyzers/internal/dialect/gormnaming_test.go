package dialect

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// gormNames are (type or field name, GORM's table, GORM's column), as
// gorm.io/gorm v1.31.2's NamingStrategy{} returned them when this port was
// written (checked by a program calling both).
var gormNames = [][3]string{
	{"User", "users", "user"},
	{"UserID", "user_ids", "user_id"},
	{"HTTPServer", "http_servers", "http_server"},
	{"APIKey", "api_keys", "api_key"},
	{"Person", "people", "person"},
	{"Human", "humen", "human"},
	{"Woman", "women", "woman"},
	{"Child", "children", "child"},
	{"Status", "statuses", "status"},
	{"Address", "addresses", "address"},
	{"Category", "categories", "category"},
	{"Box", "boxes", "box"},
	{"Quiz", "quizzes", "quiz"},
	{"Index", "indices", "index"},
	{"Matrix", "matrices", "matrix"},
	{"Mouse", "mice", "mouse"},
	{"Ox", "oxen", "ox"},
	{"Fish", "fish", "fish"},
	{"Money", "money", "money"},
	{"Information", "information", "information"},
	{"Analysis", "analyses", "analysis"},
	{"Datum", "data", "datum"},
	{"Bus", "buses", "bus"},
	{"Knife", "knives", "knife"},
	{"Wolf", "wolves", "wolf"},
	{"Hive", "hives", "hive"},
	{"Potato", "potatos", "potato"},
	{"Octopus", "octopi", "octopus"},
	{"Axis", "axes", "axis"},
	{"Key", "keys", "key"},
	{"Day", "days", "day"},
	{"Query", "queries", "query"},
	{"Series", "series", "series"},
	{"Sheep", "sheep", "sheep"},
	{"OAuthToken", "o_auth_tokens", "o_auth_token"},
	{"JSONWebKey", "json_web_keys", "json_web_key"},
	{"URLMapping", "url_mappings", "url_mapping"},
	{"Utf8Thing", "utf8_things", "utf8_thing"},
	{"HTTPSProxy", "http_s_proxies", "http_s_proxy"},
	{"UUIDRecord", "uuid_records", "uuid_record"},
	{"V2Order", "v2_orders", "v2_order"},
	{"Order2Item", "order2_items", "order2_item"},
	{"My_Table", "my_tables", "my_table"},
	{"A", "as", "a"},
	{"AB", "abs", "ab"},
	{"ID", "ids", "id"},
	{"IDs", "ids", "ids"},
	{"ReferralReward", "referral_rewards", "referral_reward"},
	{"DocumentEvent", "document_events", "document_event"},
	{"Cashback", "cashbacks", "cashback"},
	{"Outbox", "outboxes", "outbox"},
	{"Workspace", "workspaces", "workspace"},
	{"Move", "moves", "move"},
	{"Sex", "sexes", "sex"},
	{"Mombie", "mombies", "mombie"},
	{"Equipment", "equipment", "equipment"},
	{"News", "news", "news"},
	{"Shoe", "shoes", "shoe"},
	{"Movie", "movies", "movie"},
	{"Cookie", "cookies", "cookie"},
	{"Alias", "aliases", "alias"},
	{"Virus", "viri", "virus"},
	{"Buffalo", "buffaloes", "buffalo"},
	{"Tomato", "tomatoes", "tomato"},
	{"Medium", "media", "medium"},
	{"Crisis", "crises", "crisis"},
	{"Vertex", "vertices", "vertex"},
	{"Louse", "lice", "louse"},
	{"LogEntry", "log_entries", "log_entry"},
	{"UserAccountSettings", "user_account_settings", "user_account_settings"},
	{"MFAFactor", "mfa_factors", "mfa_factor"},
	{"SMSMessage", "sms_messages", "sms_message"},
	{"IPAddress", "ip_addresses", "ip_address"},
	{"Company", "companies", "company"},
	{"Policy", "policies", "policy"},
	{"Leaf", "leafs", "leaf"},
	{"Life", "lives", "life"},
	{"Wife", "wives", "wife"},
	{"Roof", "roofs", "roof"},
	{"Chief", "chiefs", "chief"},
	{"Inbox", "inboxes", "inbox"},
	{"HTTPSession", "http_sessions", "http_session"},
}

func TestGORMNaming(t *testing.T) {
	for _, n := range gormNames {
		assert.Equal(t, n[1], gormTableName(n[0]), "table of %s", n[0])
		assert.Equal(t, n[2], gormColumnName(n[0]), "column of %s", n[0])
	}
	assert.Equal(t, "idx_users_tenant_id", gormIndexName("users", "TenantID"))
	assert.Equal(t, "uni_users_email", gormUniqueName("users", "email"))
	long := "AVeryLongTableNameThatGoesOnAndOnForeverAndEver"
	assert.Equal(t, "idx_AVeryLongTableNameThatGoesOnAndOnForeverAndEver_a_ve1a09e295", gormIndexName(long, long),
		"names beyond 64 characters end in a hash, as GORM's do")
}

func TestParseTagSetting(t *testing.T) {
	assert.Equal(t, map[string]string{"PRIMARYKEY": "PRIMARYKEY", "COLUMN": "user_id", "DEFAULT": "a;b"},
		parseTagSetting(`primaryKey;column:user_id;default:a\;b`, ";"))
	assert.Equal(t, map[string]string{"UNIQUE": "UNIQUE", "WHERE": "x = 1", "PRIORITY": "2"},
		parseTagSetting("unique,where:x = 1,priority:2", ","))
	assert.True(t, checkTruth("PRIMARYKEY"))
	assert.True(t, checkTruth("", "true"))
	assert.False(t, checkTruth("false", ""))
	assert.False(t, checkTruth("FALSE"))
}
