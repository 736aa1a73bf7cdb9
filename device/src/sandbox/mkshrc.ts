/**
 * `/system/etc/mkshrc`, which every interactive shell of the device reads (mksh is built with
 * `MKSHRC_PATH` pointing there). It does what Android 14's does (`external/mksh/mkshrc` at
 * android-14.0.0_r50): background jobs are not hung up when the shell exits, `set -x` lines start
 * with the time, and the prompt is the device name, the working directory and `$` (`#` for root),
 * with the last status and a bar first when it wasn't 0: `panther:/ $ `, `130|panther:/ $ `.
 * `$HOSTNAME` comes from adbd (the device name, `ro.product.device`).
 */
export const MKSHRC = `# Read by the device's interactive shells.
set +o nohup
PS4='[$EPOCHREALTIME] '
PS1='\${|local s=$?; (( s )) && REPLY+="$s|"; return $s}$HOSTNAME:\${PWD:-?} '
if (( USER_ID )); then PS1+='$ '; else PS1+='# '; fi
`;
