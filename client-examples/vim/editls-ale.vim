" editls for Vim 9 with ALE: a minimal set-up.
" Tried with Vim 9.0 (Debian 12's vim 2:9.0.1378-2+deb12u2: "VIM - Vi IMproved 9.0 (2022 Jun 28",
" patches 1-1378) and Debian's vim-ale 3.3.0-1; test/editors/vim-ale.test.ts runs it headless.
"
" Install: apt-get install vim vim-ale; `editls` on PATH (see the README); this file in
" ~/.vim/plugin/ (or :source it from your vimrc); `filetype plugin on` in your vimrc; a UTF-8
" 'encoding' (the default in a UTF-8 locale). Options, read when editls starts:
"   g:editls_cmd           default ['editls', '--stdio'];
"                          from a checkout: ['node', '/path/to/editls/dist/editls.js', '--stdio']
"   g:editls_init_options  editls settings (docs/commands.md), default {}
" The workspace folder is the nearest folder holding .git, else Vim's current directory. :ALEInfo
" shows whether editls runs for the current buffer.
"
" What works:
"   - editls starts for every buffer that has a filetype (.ts, .txt, .py, ...), one per workspace;
"     ALE runs nothing in a buffer without one (`:setf text` gives it one). Where ALE runs only
"     listed linters by default (text, python, json, ...) this adds 'editls' to g:ale_linters.
"   - :ALESymbolSearch {query}   workspace symbols: a list, <CR> jumps
"   - :ALECodeAction             editls's code actions for the cursor line (remove trailing
"                                whitespace, apply / discard a previewed edit, ...): type a number
"   - :EditlsExecute {command} {json}  any editls command with its arguments, e.g.
"         :EditlsExecute editls.edit {"file_path":"a.ts","old_string":"foo","new_string":"bar"}
"         :EditlsExecute editls.edit {"file_path":"a.ts","old_string":"foo","new_string":"bar","apply":"preview"}
"         :EditlsExecute editls.undo {"path":"a.ts"}
"     echoes editls's one-line summary, or the error with its kind (not_found, stale, ...); so do
"     the commands code actions run. From a script: call EditlsExecute(command, args, Callback).
"     Edits to open buffers arrive unsaved, one `u` each; files not open are written to disk.
" What ALE 3.3.0 lacks and this file adds (ALE has no option for any of it):
"   - ALE never answers workspace/applyEdit (it applies it, and only once :ALECodeAction has run),
"     so editls waited 10 s and failed every edit to an open buffer (apply_rejected). This file
"     applies it, sends ALE's didChange and answers.
"   - ALE offers no positionEncodings, so editls sends UTF-16 columns, while ALE counts bytes: an
"     edit after é or 😀 in a line mangled it. This file converts the edits' columns.
"   - ALE has no command for workspace/executeCommand with arguments (:EditlsExecute above).
" Still off: on a line with non-ASCII text, symbol jumps land a few columns off and preview hints
" are marked at the wrong columns (ALE reads both as bytes); preview hints show as warnings; an edit
" to another buffer shows it in the window for a moment; ALE answers no other server request
" (window/showMessageRequest: agentEdits "review" cannot be answered from Vim).

if exists('g:loaded_editls_ale')
  finish
endif
let g:loaded_editls_ale = 1
" Debian's vim-ale is an optional package: load it now (drop this line if ALE comes from elsewhere).
silent! packadd ale

let s:pending = {}   " executeCommand request id -> Callback
let s:hooking = 0

function! s:Root(buffer) abort
  let l:git = ale#path#FindNearestDirectory(a:buffer, '.git')
  return empty(l:git) ? getcwd() : fnamemodify(l:git, ':h:h')
endfunction

let s:linter = {
\   'name': 'editls',
\   'lsp': 'stdio',
\   'executable': {buffer -> get(g:, 'editls_cmd', ['editls', '--stdio'])[0]},
\   'command': {buffer -> join(map(copy(get(g:, 'editls_cmd', ['editls', '--stdio'])), 'ale#Escape(v:val)'))},
\   'project_root': function('s:Root'),
\   'initialization_options': {buffer -> get(g:, 'editls_init_options', {})},
\}

" FileType: define editls for the filetype (and the ones ALE resolves it to) and make ALE run it.
function! s:Enable(filetypes) abort
  for l:ft in split(a:filetypes, '\.')
    for l:resolved in ale#linter#ResolveFiletype(l:ft)
      call ale#linter#Define(l:resolved, s:linter)
    endfor
    let l:names = map(ale#linter#Get(l:ft), 'v:val.name')
    if index(l:names, 'editls') < 0
      let g:ale_linters[l:ft] = l:names + ['editls']
    endif
  endfor
endfunction

function! s:Linter(buffer) abort
  return get(filter(ale#linter#Get(getbufvar(a:buffer, '&filetype')), 'v:val.name is# "editls"'), 0, {})
endfunction

" ALELSPStarted (any server, any time a buffer's server is ready): listen on editls's connection.
function! s:Hook(buffer) abort
  let l:linter = s:Linter(a:buffer)
  if s:hooking || empty(l:linter)
    return
  endif
  let s:hooking = 1
  try
    call ale#lsp_linter#StartLSP(a:buffer, l:linter,
    \ {linter, details -> ale#lsp#RegisterCallback(details.connection_id, function('s:OnMessage'))})
  finally
    let s:hooking = 0
  endtry
endfunction

" A byte count for ALE from an LSP position in UTF-16 code units (what editls sends ALE).
function! s:Bytes(buffer, position) abort
  let l:text = get(getbufline(a:buffer, a:position.line + 1), 0, '')
  let [l:i, l:units, l:bytes] = [0, 0, 0]
  while l:units < a:position.character && l:i < strchars(l:text)
    let l:char = strgetchar(l:text, l:i)
    let l:units += l:char > 0xFFFF ? 2 : 1
    let l:bytes += len(nr2char(l:char))
    let l:i += 1
  endwhile
  return l:bytes
endfunction

function! s:Reply(conn_id, id, result) abort
  let l:body = json_encode({'jsonrpc': '2.0', 'id': a:id, 'result': a:result})
  call ale#job#SendRaw(ale#lsp#GetConnections()[a:conn_id].job_id,
  \ 'Content-Length: ' . len(l:body) . "\r\n\r\n" . l:body)
endfunction

function! s:Show(response) abort
  if has_key(a:response, 'error')
    let l:kind = get(get(a:response.error, 'data', {}), 'kind', '')
    call s:Error((empty(l:kind) ? '' : l:kind . ': ') . a:response.error.message)
  elseif type(get(a:response, 'result')) is v:t_dict && has_key(a:response.result, 'message')
    echomsg a:response.result.message
  endif
endfunction

" Runs before ALE's own handlers (ALE sorts them by name; script-local names come first).
function! s:OnMessage(conn_id, message) abort
  if get(a:message, 'method', '') is# 'workspace/applyEdit'
    let l:id = remove(a:message, 'id')
    call remove(a:message, 'method')   " so ALE's handler does not apply it a second time
    let l:changes = ale#code_action#GetChanges(a:message.params.edit)
    let l:ticks = {}
    for [l:uri, l:edits] in items(l:changes)
      let l:buffer = bufadd(ale#util#ToResource(l:uri))
      call bufload(l:buffer)
      for l:edit in l:edits
        let l:edit.range = {'start': {'line': l:edit.range.start.line, 'character': s:Bytes(l:buffer, l:edit.range.start)},
        \                   'end': {'line': l:edit.range.end.line, 'character': s:Bytes(l:buffer, l:edit.range.end)}}
      endfor
      let l:ticks[l:buffer] = getbufvar(l:buffer, 'changedtick')
    endfor
    " ALE shows each changed buffer in the window, then the one you were in: 'hidden' lets it.
    let [l:hidden, l:error] = [&hidden, '']
    set hidden
    try
      call ale#code_action#HandleCodeAction({'description': 'applyEdit', 'changes': ale#code_action#BuildChangesList(l:changes)}, {})
    catch
      let l:error = v:exception
    finally
      let &hidden = l:hidden
    endtry
    let l:unchanged = filter(keys(l:ticks), 'getbufvar(+v:val, "changedtick") == l:ticks[v:val]')
    for l:buffer in keys(l:ticks)
      call ale#lsp#NotifyForChanges(a:conn_id, +l:buffer)
    endfor
    let l:result = empty(l:unchanged) ? {'applied': v:true} : {'applied': v:false,
    \ 'failureReason': empty(l:error) ? 'not applied to ' . join(map(l:unchanged, 'bufname(+v:val)'), ', ') : l:error}
    call s:Reply(a:conn_id, l:id, l:result)
  elseif !has_key(a:message, 'method') && has_key(s:pending, get(a:message, 'id', -1))
    call call(remove(s:pending, a:message.id), [a:message])
  elseif !has_key(a:message, 'method')
    call s:Show(a:message)   " e.g. the result of the command a code action ran
  endif
endfunction

function! s:Error(message) abort
  echohl ErrorMsg | echomsg 'editls: ' . a:message | echohl None
endfunction

function! EditlsExecute(command, args, ...) abort
  let l:linter = s:Linter(bufnr(''))
  if empty(l:linter)
    return s:Error('not enabled in this buffer (it needs a filetype)')
  endif
  if !ale#lsp_linter#StartLSP(bufnr(''), l:linter, function('s:Send', [a:command, a:args, get(a:000, 0, function('s:Show'))]))
    call s:Error('could not start ' . join(get(g:, 'editls_cmd', ['editls', '--stdio'])) . ' (see :ALEInfo)')
  endif
endfunction

function! s:Send(command, args, Callback, linter, details) abort
  let l:conn_id = a:details.connection_id
  call ale#lsp#RegisterCallback(l:conn_id, function('s:OnMessage'))
  " editls has to see unsaved changes first; ALE sends them only when it lints.
  for l:buffer in range(1, bufnr('$'))
    call ale#lsp#NotifyForChanges(l:conn_id, l:buffer)
  endfor
  let s:pending[ale#lsp#Send(l:conn_id, ale#lsp#message#ExecuteCommand(a:command, [a:args]))] = a:Callback
endfunction

function! s:Command(line) abort
  let [l:command, l:json] = matchlist(a:line, '^\(\S\+\)\s*\(.*\)$')[1:2]
  call EditlsExecute(l:command, json_decode(l:json =~ '\S' ? l:json : '{}'))
endfunction
command! -nargs=+ EditlsExecute call s:Command(<q-args>)

augroup editls_ale
  autocmd!
  autocmd FileType * call s:Enable(expand('<amatch>'))
  autocmd User ALELSPStarted call s:Hook(bufnr(''))
augroup END
