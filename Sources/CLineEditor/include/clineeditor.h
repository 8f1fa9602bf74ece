#ifndef CLINEEDITOR_H
#define CLINEEDITOR_H

// Line editing for the reader's prompt (left/right, home/end, history on up/down) from libedit,
// loaded on first use with dlopen: a reader without a terminal, or a machine without libedit,
// pays nothing and reads lines plainly.

/// Loads libedit once; 1 on success, 0 when it is not there.
int cle_load(void);
/// Shows `prompt` and reads one edited line; NULL at end of input (Ctrl-D). Free with cle_free.
char *cle_readline(const char *prompt);
/// Adds a line to the history that up and down walk through.
void cle_add_history(const char *line);
void cle_free(char *line);

#endif
