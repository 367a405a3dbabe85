# bash completion for fixscan(1): commands, each command's options, the
# values of --drafts=, --drafts-for= and --color=, directories for
# --repo/--drafts-dir/--queue/--vulns/-C and files for --mbox/--ignore and
# where a command reads them.
#
# Options are read from 'fixscan COMMAND --help' the first time a command
# is completed, so the completion cannot drift from the program.

_fixscan_options()
{
	local cmd=$1 var=_fixscan_opts_$1
	if [ -z "${!var+set}" ]; then
		printf -v "$var" '%s' "$("${_fixscan_bin:-fixscan}" "$cmd" --help 2>/dev/null |
			grep -o -- '--[a-z][a-z-]*\(\[=\)\{0,1\}' | sed 's/\[=$/=/' | sort -u | tr '\n' ' ')"
	fi
	printf '%s' "${!var}"
}

_fixscan()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	local commands="check digest help index parse review show stats"
	local i=1 cmd=

	_fixscan_bin=${COMP_WORDS[0]}
	# The command is the first word that is not an option (after -C DIR).
	while [ "$i" -lt "$COMP_CWORD" ]; do
		case ${COMP_WORDS[i]} in
		-C) i=$((i + 2)); continue ;;
		--no-pager) ;;
		-*) ;;
		*) cmd=${COMP_WORDS[i]}; break ;;
		esac
		i=$((i + 1))
	done
	COMPREPLY=()
	if [ -z "$cmd" ]; then
		if [ "$prev" = -C ]; then
			COMPREPLY=($(compgen -d -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$commands --help --version --no-pager -C" -- "$cur"))
		fi
		return
	fi
	if [ "$cmd" = help ]; then
		[ "$i" -eq $((COMP_CWORD - 1)) ] &&
			COMPREPLY=($(compgen -W "${commands/help /}" -- "$cur"))
		return
	fi
	# "--drafts=su" arrives as "--drafts" "=" "su" (= breaks words).
	if [ "$prev" = "=" ] && [ "${COMP_WORDS[COMP_CWORD-2]}" = --drafts ]; then
		COMPREPLY=($(compgen -W "all summary patches" -- "$cur"))
		return
	fi
	if [ "$cur" = "=" ] && [ "$prev" = --drafts ]; then
		COMPREPLY=(all summary patches)
		return
	fi
	if [ "$prev" = "=" ] && [ "${COMP_WORDS[COMP_CWORD-2]}" = --color ]; then
		COMPREPLY=($(compgen -W "always never auto" -- "$cur"))
		return
	fi
	if [ "$cur" = "=" ] && [ "$prev" = --color ]; then
		COMPREPLY=(always never auto)
		return
	fi
	if [ "$prev" = "=" ] && [ "${COMP_WORDS[COMP_CWORD-2]}" = --drafts-for ]; then
		COMPREPLY=($(compgen -W "action every-finding" -- "$cur"))
		return
	fi
	if [ "$cur" = "=" ] && [ "$prev" = --drafts-for ]; then
		COMPREPLY=(action every-finding)
		return
	fi
	case $prev in
	--repo|--drafts-dir|--queue|--vulns)
		COMPREPLY=($(compgen -d -- "$cur"))
		return ;;
	--ignore|--mbox)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--branch|--base|--since|--query)
		return ;;
	esac
	case $cur in
	-*)
		COMPREPLY=($(compgen -W "$(_fixscan_options "$cmd")" -- "$cur"))
		# No space after an option that takes its value after =.
		if [ "${#COMPREPLY[@]}" -eq 1 ] && [ "${COMPREPLY[0]%=}" != "${COMPREPLY[0]}" ]; then
			compopt -o nospace 2>/dev/null
		fi ;;
	*)
		case $cmd in
		check|parse) COMPREPLY=($(compgen -f -- "$cur")) ;;
		esac ;;
	esac
}
complete -F _fixscan fixscan
