" Headless Vim 9 + ALE (Debian's vim-ale) driver for test/editors/vim-ale.test.ts: the shipped
" client-examples/vim/editls-ale.vim as its header says to use it. editls starts for a .ts and a .txt
" file; :ALESymbolSearch; :ALECodeAction "remove trailing whitespace" (its applyEdit answered, so the
" command succeeds at once); :EditlsExecute editls.edit on the é/😀 line (UTF-16 columns converted);
" a preview, then :ALECodeAction "apply previewed edit". The code-action menus read their answers
" from stdin (the test passes one line per prompt). Waits are on conditions with a deadline.
" Records everything as JSON in $OUT.
" Run: WS=... SERVER=dist/editls.js OUT=out.json REPO=. vim -N -u test/editors/vim-ale-driver.vim -i NONE -es < answers
set nocompatible encoding=utf-8 hidden
filetype plugin on
let g:editls_cmd = ['node', $SERVER, '--stdio']
execute 'source ' . fnameescape($REPO . '/client-examples/vim/editls-ale.vim')

let s:out = {}
let s:messages = []   " every message editls sent to Vim (a copy, as ALE's handlers see them)

function! s:Put(key, value) abort
  let s:out[a:key] = a:value
endfunction

function! s:Wait(ms, Cond) abort
  let l:start = reltime()
  while !a:Cond() && reltimefloat(reltime(l:start)) * 1000 < a:ms
    sleep 10m
  endwhile
  return a:Cond() ? v:true : v:false
endfunction

function! s:Conn() abort
  let l:conns = filter(values(ale#lsp#GetConnections()), 'v:val.id =~# "^node:"')
  return empty(l:conns) ? {} : l:conns[0]
endfunction

function! s:Spy(conn_id, message) abort
  call add(s:messages, deepcopy(a:message))
endfunction

" The results and errors of workspace/executeCommand requests (from code actions or EditlsExecute).
function! s:CommandResponses() abort
  return filter(copy(s:messages), '!has_key(v:val, "method") && (has_key(v:val, "error") || (type(get(v:val, "result")) is v:t_dict && has_key(v:val.result, "message")))')
endfunction

function! s:Text() abort
  return join(getline(1, '$'), "\n") . "\n"
endfunction

function! s:Open(name) abort
  execute 'edit ' . fnameescape($WS . '/' . a:name)
  let l:buffer = bufnr('')
  let l:ready = s:Wait(10000, {-> !empty(s:Conn()) && s:Conn().initialized && has_key(s:Conn().open_documents, l:buffer)})
  if l:ready
    call ale#lsp#RegisterCallback(s:Conn().id, function('s:Spy'))
  endif
  return l:ready
endfunction

function! s:Main() abort
  " 1. editls starts for a .ts file (typescript) and a .txt file (text: ALE runs no linter there by default)
  call s:Put('ts.started', s:Open('lib.ts'))
  call s:Put('ts.filetype', &filetype)
  call s:Put('root', s:Conn().root)
  " 2. :ALESymbolSearch from the .ts buffer: a selection list naming lib.js:2. Asked again until the
  "    list shows: right after start editls may answer "No symbols found." before its first scan of
  "    the workspace has reached lib.js (seen once in 20 runs).
  let l:start = reltime()
  let l:searches = 0
  while &filetype isnot# 'ale-preview-selection' && reltimefloat(reltime(l:start)) < 10
    ALESymbolSearch fooBar
    let l:searches += 1
    call s:Wait(1000, {-> &filetype is# 'ale-preview-selection'})
  endwhile
  call s:Put('symbols.searches', l:searches)
  call s:Put('symbols.shown', &filetype is# 'ale-preview-selection' ? v:true : v:false)
  call s:Put('symbols.lines', getline(1, '$'))
  if &filetype is# 'ale-preview-selection'
    quit
  endif

  call s:Put('txt.started', s:Open('ws.txt'))
  call s:Put('txt.filetype', &filetype)
  call s:Put('connections', len(ale#lsp#GetConnections()))

  " 3. :ALECodeAction on line 1 (answer 1: "remove trailing whitespace in line 1")
  call cursor(1, 1)
  let l:start = reltime()
  let l:before = len(s:CommandResponses())
  ALECodeAction
  call s:Wait(10000, {-> len(s:CommandResponses()) > l:before})
  call s:Put('trim.seconds', reltimefloat(reltime(l:start)))
  call s:Put('trim.buffer', s:Text())
  call s:Put('trim.responses', s:CommandResponses()[l:before :])
  call s:Put('trim.disk', join(readfile($WS . '/ws.txt'), "\n") . "\n")

  " 4. :EditlsExecute editls.edit on the é/😀 line of an open buffer: UTF-16 columns land right;
  "    then on text typed but not yet sent to editls (:EditlsExecute sends it first)
  call s:Open('a.txt')
  let l:before = len(s:CommandResponses())
  EditlsExecute editls.edit {"file_path":"a.txt","old_string":"target","new_string":"TARGET"}
  call s:Wait(10000, {-> len(s:CommandResponses()) > l:before})
  call s:Put('edit.buffer', s:Text())
  call s:Put('edit.responses', s:CommandResponses()[l:before :])
  call setline(2, 'second line typed')
  let l:before = len(s:CommandResponses())
  EditlsExecute editls.edit {"file_path":"a.txt","old_string":"line typed","new_string":"line TYPED"}
  call s:Wait(10000, {-> len(s:CommandResponses()) > l:before})
  call s:Put('typed.buffer', s:Text())
  call s:Put('typed.responses', s:CommandResponses()[l:before :])
  call s:Put('disk.a', join(readfile($WS . '/a.txt'), "\n") . "\n")

  " 5. a preview, then :ALECodeAction on its line (answer 1: "apply previewed edit")
  let l:before = len(s:CommandResponses())
  EditlsExecute editls.edit {"file_path":"a.txt","old_string":"hello","new_string":"HELLO","apply":"preview"}
  call s:Wait(10000, {-> len(s:CommandResponses()) > l:before})
  call s:Put('preview.responses', s:CommandResponses()[l:before :])
  call s:Put('preview.buffer', s:Text())
  call cursor(1, 1)
  let l:before = len(s:CommandResponses())
  ALECodeAction
  call s:Wait(10000, {-> len(s:CommandResponses()) > l:before})
  call s:Put('apply.buffer', s:Text())
  call s:Put('apply.responses', s:CommandResponses()[l:before :])
  call s:Put('messages', split(execute('messages'), "\n"))
  call s:Put('unanswered', len(filter(copy(s:messages), 'get(v:val, "method", "") is# "window/logMessage" && v:val.params.message =~# "did not answer"')))
endfunction

function! s:Run() abort
  try
    call s:Main()
    call s:Put('ok', v:true)
  catch
    call s:Put('ok', v:false)
    call s:Put('error', v:exception . ' at ' . v:throwpoint)
  endtry
  call writefile([json_encode(s:out)], $OUT)
  qall!
endfunction

autocmd VimEnter * ++nested call s:Run()
