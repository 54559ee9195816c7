# bash completion for sim-writeback: options, scenario keys after --set and
# --sweep (SECTION.KEY=), tracepoints after --trace-events, scenario files
# and the bundled scenarios by name.
# SECTION.KEY= of every "| `[vm]` | `dirty_ratio` |" row of the key reference
_sim_writeback_keys()
{
	"$1" --list-keys 2>/dev/null |
		sed -n 's/^| `\[\([a-z_]*\)\]` | `\([a-z_0-9]*\)` |.*/\1.\2=/p' | sort -u
}

_sim_writeback()
{
	local cur prev words cword
	if declare -F _init_completion >/dev/null; then
		_init_completion -n = || return
	else
		cur=${COMP_WORDS[COMP_CWORD]}
		prev=${COMP_WORDS[COMP_CWORD-1]}
	fi
	local prog=${COMP_WORDS[0]}

	case $prev in
	--set|--sweep)
		local keys
		keys=$(_sim_writeback_keys "$prog")
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "$keys" -- "$cur"))
		return ;;
	--series|--trace|--output|-o|--results)
		COMPREPLY=($(compgen -f -- "$cur"))
		return ;;
	--output-format)
		COMPREPLY=($(compgen -W "text json json+ csv" -- "$cur"))
		return ;;
	--trace-events)
		# the system, writeback:EVENT and EVENT, after the list's last comma
		local evs pre=${cur%"${cur##*,}"}
		evs=$("$prog" --list-trace-events 2>/dev/null)
		COMPREPLY=($(compgen -P "$pre" -W "writeback $evs ${evs//writeback:/}" -- "${cur##*,}"))
		return ;;
	--seed|--repeat|--jobs|-j)
		return ;;
	esac
	case $cur in
	--set=*|--sweep=*)
		local keys
		keys=$(_sim_writeback_keys "$prog")
		compopt -o nospace 2>/dev/null
		COMPREPLY=($(compgen -W "$keys" -- "${cur#*=}"))
		return ;;
	-*)
		local opts
		opts=$("$prog" --help 2>/dev/null | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z-]*\).*/\2/p')
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		return ;;
	esac
	# a scenario: a file, or a bundled scenario's name
	local names
	names=$("$prog" --list-scenarios 2>/dev/null | cut -d' ' -f1)
	COMPREPLY=($(compgen -W "$names" -- "$cur") $(compgen -f -X '!*.ini' -- "$cur") $(compgen -d -- "$cur"))
}
complete -F _sim_writeback sim-writeback sim-writeback-mpi
