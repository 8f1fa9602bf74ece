#ifndef CCURL_H
#define CCURL_H

#include <curl/curl.h>
#include <stddef.h>

// Swift cannot call C variadic functions such as curl_easy_setopt and curl_easy_getinfo;
// these typed wrappers make each kind of option callable.

typedef size_t (*ccurl_write_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*ccurl_progress_callback)(void *context, curl_off_t dltotal, curl_off_t dlnow, curl_off_t ultotal, curl_off_t ulnow);

CURLcode ccurl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_setopt_off(CURL *handle, CURLoption option, curl_off_t value);
CURLcode ccurl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode ccurl_setopt_write_function(CURL *handle, CURLoption option, ccurl_write_callback callback);
CURLcode ccurl_setopt_progress_function(CURL *handle, ccurl_progress_callback callback);

CURLcode ccurl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_getinfo_string(CURL *handle, CURLINFO info, char **value);

#endif
