#include "fixscan/json.h"

void fs_json_str(JsonBuilder *b, const char *key, const char *value)
{
	json_builder_set_member_name(b, key);
	if (value)
		json_builder_add_string_value(b, value);
	else
		json_builder_add_null_value(b);
}

void fs_json_int(JsonBuilder *b, const char *key, long value)
{
	json_builder_set_member_name(b, key);
	if (value >= 0)
		json_builder_add_int_value(b, value);
	else
		json_builder_add_null_value(b);
}

void fs_json_bool(JsonBuilder *b, const char *key, bool value)
{
	json_builder_set_member_name(b, key);
	json_builder_add_boolean_value(b, value);
}

int fs_json_print_line(JsonBuilder *b, FILE *out)
{
	JsonGenerator *gen = json_generator_new();
	JsonNode *root = json_builder_get_root(b);
	gchar *text;
	int rc;

	json_generator_set_root(gen, root);
	text = json_generator_to_data(gen, NULL);
	rc = fprintf(out, "%s\n", text) < 0 ? -1 : 0;
	g_free(text);
	json_node_unref(root);
	g_object_unref(gen);
	json_builder_reset(b);
	return rc;
}
