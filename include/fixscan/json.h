/* fixscan: small helpers over json-glib's JsonBuilder, so every command
 * writes JSON the same way (null for absent values, one line per object). */
#ifndef FIXSCAN_JSON_H
#define FIXSCAN_JSON_H

#include <stdbool.h>
#include <stdio.h>

#include <json-glib/json-glib.h>

/* Member KEY with a string value, or null when VALUE is NULL. */
void fs_json_str(JsonBuilder *b, const char *key, const char *value);
/* Member KEY with an integer value, or null when VALUE is negative. */
void fs_json_int(JsonBuilder *b, const char *key, long value);
void fs_json_bool(JsonBuilder *b, const char *key, bool value);

/* Print the builder's root as one line followed by a newline on OUT and
 * reset the builder.  Returns 0, or -1 when writing failed. */
int fs_json_print_line(JsonBuilder *b, FILE *out);

#endif
