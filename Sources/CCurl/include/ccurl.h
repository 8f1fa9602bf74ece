#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>
#include <stddef.h>

// libcurl is loaded on first use (dlopen), not at start-up: linking it pulls in TLS, Kerberos,
// LDAP and more, about 6 MB of memory that a reader who never fetches a picture should not pay.
// Swift also cannot call C variadic functions such as curl_easy_setopt; these typed wrappers
// make each kind of option callable.

/// Loads libcurl once; 1 on success, 0 on failure (see ccurl_load_error).
int ccurl_load(void);
const char *ccurl_load_error(void);
/// libcurl's version line ("libcurl/7.88.1 OpenSSL/3.0.17 ..."); loads libcurl.
const char *ccurl_version(void);

typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);

CURLcode ccurl_global_init(long flags);
CURL *ccurl_easy_init(void);
void ccurl_easy_cleanup(CURL *handle);
CURLcode ccurl_easy_perform(CURL *handle);
const char *ccurl_easy_strerror(CURLcode code);
struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *string);
void ccurl_slist_free_all(struct curl_slist *list);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_setopt_write_function(CURL *handle, CURLoption option, ccurl_write_callback callback);

CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, char **value);

#endif
