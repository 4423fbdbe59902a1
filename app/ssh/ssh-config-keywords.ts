/**
 * Every keyword OpenSSH 9.2's ssh accepts in ssh_config (Debian build; deprecated and unsupported
 * ones included, which ssh only warns about). Anything else makes ssh stop with "Bad configuration
 * option" unless IgnoreUnknown names it; the built-in reader does the same, so a misspelled
 * security setting is never silently skipped.
 */
export const SSH_CONFIG_KEYWORDS: ReadonlySet<string> = new Set(
  `addkeystoagent addressfamily afstokenpassing batchmode bindaddress bindinterface canonicaldomains canonicalizefallbacklocal
  canonicalizehostname canonicalizemaxdots canonicalizepermittedcnames casignaturealgorithms certificatefile
  challengeresponseauthentication checkhostip cipher ciphers clearallforwardings compression compressionlevel connectionattempts
  connecttimeout controlmaster controlpath controlpersist dsaauthentication dynamicforward enableescapecommandline enablesshkeysign
  escapechar exitonforwardfailure fallbacktorsh fingerprinthash forkafterauthentication forwardagent forwardx11 forwardx11timeout
  forwardx11trusted gatewayports globalknownhostsfile globalknownhostsfile2 gssapiauthentication gssapiclientidentity
  gssapidelegatecredentials gssapikexalgorithms gssapikeyexchange gssapirenewalforcesrekey gssapiserveridentity gssapitrustdns
  hashknownhosts host hostbasedacceptedalgorithms hostbasedauthentication hostbasedkeytypes hostkeyalgorithms hostkeyalias hostname
  identitiesonly identityagent identityfile identityfile2 ignoreunknown include ipqos kbdinteractiveauthentication
  kbdinteractivedevices kerberosauthentication kerberostgtpassing kexalgorithms knownhostscommand localcommand localforward loglevel
  logverbose macs match nohostauthenticationforlocalhost numberofpasswordprompts passwordauthentication permitlocalcommand
  permitremoteopen pkcs11provider port preferredauthentications protocol protocolkeepalives proxycommand proxyjump proxyusefdpass
  pubkeyacceptedalgorithms pubkeyacceptedkeytypes pubkeyauthentication rekeylimit remotecommand remoteforward requesttty
  requiredrsasize revokedhostkeys rhostsauthentication rhostsrsaauthentication rsaauthentication securitykeyprovider sendenv
  serveralivecountmax serveraliveinterval sessiontype setenv setuptimeout skeyauthentication smartcarddevice stdinnull
  streamlocalbindmask streamlocalbindunlink stricthostkeychecking syslogfacility tcpkeepalive tisauthentication tunnel tunneldevice
  updatehostkeys useblacklistedkeys useprivilegedport user userknownhostsfile userknownhostsfile2 useroaming usersh verifyhostkeydns
  visualhostkey xauthlocation`.split(/\s+/),
);
