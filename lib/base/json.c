/* fixscan: the JSON writer (see json.h), over json-glib's JsonBuilder. */
#include <json-glib/json-glib.h>

#include "fixscan/date.h"
#include "fixscan/json.h"

struct fs_json {
	JsonBuilder *b;
};

struct fs_json *fs_json_new(void)
{
	struct fs_json *j = g_new0(struct fs_json, 1);

	j->b = json_builder_new();
	return j;
}

void fs_json_free(struct fs_json *j)
{
	if (!j)
		return;
	g_object_unref(j->b);
	g_free(j);
}

void fs_json_member(struct fs_json *j, const char *key)
{
	json_builder_set_member_name(j->b, key);
}

void fs_json_begin_object(struct fs_json *j)
{
	json_builder_begin_object(j->b);
}

void fs_json_end_object(struct fs_json *j)
{
	json_builder_end_object(j->b);
}

void fs_json_begin_array(struct fs_json *j)
{
	json_builder_begin_array(j->b);
}

void fs_json_end_array(struct fs_json *j)
{
	json_builder_end_array(j->b);
}

void fs_json_add_str(struct fs_json *j, const char *value)
{
	if (value)
		json_builder_add_string_value(j->b, value);
	else
		json_builder_add_null_value(j->b);
}

void fs_json_add_int(struct fs_json *j, long value)
{
	json_builder_add_int_value(j->b, value);
}

void fs_json_add_bool(struct fs_json *j, bool value)
{
	json_builder_add_boolean_value(j->b, value);
}

void fs_json_add_null(struct fs_json *j)
{
	json_builder_add_null_value(j->b);
}

void fs_json_str(struct fs_json *j, const char *key, const char *value)
{
	fs_json_member(j, key);
	fs_json_add_str(j, value);
}

void fs_json_rfc3339(struct fs_json *j, const char *key, const char *date)
{
	char *t = fs_date_header_rfc3339(date);

	fs_json_str(j, key, t);
	g_free(t);
}

void fs_json_int(struct fs_json *j, const char *key, long value)
{
	fs_json_member(j, key);
	if (value >= 0)
		fs_json_add_int(j, value);
	else
		fs_json_add_null(j);
}

void fs_json_bool(struct fs_json *j, const char *key, bool value)
{
	fs_json_member(j, key);
	fs_json_add_bool(j, value);
}

int fs_json_print_line(struct fs_json *j, FILE *out)
{
	JsonGenerator *gen = json_generator_new();
	JsonNode *root = json_builder_get_root(j->b);
	gchar *text;
	int rc;

	json_generator_set_root(gen, root);
	text = json_generator_to_data(gen, NULL);
	rc = fprintf(out, "%s\n", text) < 0 ? -1 : 0;
	g_free(text);
	json_node_unref(root);
	g_object_unref(gen);
	json_builder_reset(j->b);
	return rc;
}
