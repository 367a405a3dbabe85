/* fixscan: writing JSON, the same way in every command: null for absent
 * values, one document per line.
 *
 * A thin opaque writer over json-glib, so that no header of fixscan
 * exposes json-glib's types.  Calls mirror the document: begin an object
 * or array, name a member, add a value, end.  Out of memory is fatal in
 * GLib, so these calls cannot fail; only printing can.
 */
#ifndef FIXSCAN_JSON_H
#define FIXSCAN_JSON_H

#include <stdbool.h>
#include <stdio.h>

struct fs_json;

/* A new, empty document; free with fs_json_free(). */
struct fs_json *fs_json_new(void);
void fs_json_free(struct fs_json *j);

/* The name of the next member of the current object. */
void fs_json_member(struct fs_json *j, const char *key);

void fs_json_begin_object(struct fs_json *j);
void fs_json_end_object(struct fs_json *j);
void fs_json_begin_array(struct fs_json *j);
void fs_json_end_array(struct fs_json *j);

/* A value: an array element, or the value of the member just named. */
void fs_json_add_str(struct fs_json *j, const char *value);   /* NULL: null */
void fs_json_add_int(struct fs_json *j, long value);
void fs_json_add_bool(struct fs_json *j, bool value);
void fs_json_add_null(struct fs_json *j);

/* Member KEY with a string value, or null when VALUE is NULL. */
void fs_json_str(struct fs_json *j, const char *key, const char *value);
/* Member KEY with an integer value, or null when VALUE is negative. */
void fs_json_int(struct fs_json *j, const char *key, long value);
void fs_json_bool(struct fs_json *j, const char *key, bool value);
/* Member KEY with DATE (a Date header, or a date as written in a cover
 * letter; may be NULL) in RFC 3339 UTC, "2016-04-27T01:44:52Z"
 * (fs_date_header_rfc3339()), or null when it is no date.  Every date
 * of fixscan's JSON has such a twin, named <key>_rfc3339. */
void fs_json_rfc3339(struct fs_json *j, const char *key, const char *date);

/* Print the document as one line followed by a newline on OUT and start
 * a new, empty one.  Returns 0, or -1 when writing failed. */
int fs_json_print_line(struct fs_json *j, FILE *out);

#endif
