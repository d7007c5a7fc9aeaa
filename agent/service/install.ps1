<#
  Installs the trust assistant for the signed-in user and starts it now and at every sign-in, as the
  logon task "Trust Assistant" (schtasks), or where the task cannot be registered, from the user's
  Startup folder. No administrator rights, Node.js or npm are needed: the executable carries Node.js.

    .\install.ps1 [-Origin https://console.example.com[,https://other.example.com]]

  -Origin names the consoles the agent may talk to. The settings of README.md (TRUST_AGENT_PKCS11_MODULES,
  TRUST_AGENT_PORT, ...) set in this script's environment are kept for the agent as user environment
  variables; settings of an earlier install not given again stay as they were.
#>
param([string[]]$Origin = @())
$ErrorActionPreference = 'Stop'

$package = $PSScriptRoot
$app = Join-Path $env:LOCALAPPDATA 'Programs\Trust Assistant'
$executable = Join-Path $app 'trust-assistant.exe'
$taskName = 'Trust Assistant'

if (-not (Test-Path (Join-Path $package 'trust-assistant.exe'))) {
  throw 'This package has no trust-assistant.exe: download the package for Windows.'
}

# A running copy is stopped before its file is replaced.
schtasks.exe /End /TN $taskName 2>$null | Out-Null
Get-Process -Name 'trust-assistant' -ErrorAction SilentlyContinue |
  Where-Object { $_.Path -eq $executable } | Stop-Process -Force
Start-Sleep -Milliseconds 500

New-Item -ItemType Directory -Force -Path $app | Out-Null
foreach ($file in 'trust-assistant.exe', 'README.md', 'NODE-LICENSE') {
  $source = Join-Path $package $file
  if (Test-Path $source) { Copy-Item -LiteralPath $source -Destination $app -Force }
}
# SnoreToast, which shows the pairing's desktop notification.
$vendor = Join-Path $package 'vendor'
if (Test-Path $vendor) { Copy-Item -LiteralPath $vendor -Destination $app -Recurse -Force }

# Settings: user environment variables, which the logon task's process receives.
# From cmd (install.cmd) a list arrives as one argument: "https://a.example,https://b.example".
$origins = @($Origin | ForEach-Object { $_ -split ',' } | ForEach-Object { $_.Trim() } | Where-Object { $_ })
if ($origins.Count -gt 0) {
  [Environment]::SetEnvironmentVariable('TRUST_AGENT_ALLOWED_ORIGINS', ($origins -join ','), 'User')
}
foreach ($name in 'TRUST_AGENT_PREAPPROVED_ORIGINS', 'TRUST_AGENT_PKCS11_MODULES', 'TRUST_AGENT_SOFTWARE_KEYSTORE',
  'TRUST_AGENT_WEB_ACCESS', 'TRUST_AGENT_DATA_DIR', 'TRUST_AGENT_PORT', 'TRUST_AGENT_DESKTOP_CLIENT',
  'TRUST_AGENT_DESKTOP_CLIENT_PORT') {
  $value = [Environment]::GetEnvironmentVariable($name, 'Process')
  if ($value) { [Environment]::SetEnvironmentVariable($name, $value, 'User') }
}

# `trust-assistant approve CODE` from any new terminal.
$userPath = [Environment]::GetEnvironmentVariable('Path', 'User')
if (-not (($userPath -split ';') -contains $app)) {
  [Environment]::SetEnvironmentVariable('Path', (@($userPath, $app) | Where-Object { $_ }) -join ';', 'User')
}

# The task starts the agent at this user's logon without a console window, without a time limit, and
# again a minute after it fails (up to 3 times), like the systemd unit's Restart=on-failure.
$user = [System.Security.Principal.WindowsIdentity]::GetCurrent().Name
$escape = { param($text) [System.Security.SecurityElement]::Escape($text) }
$arguments = "-NoProfile -NonInteractive -WindowStyle Hidden -Command `"& '$($executable -replace "'", "''")'`""
$task = @"
<?xml version="1.0" encoding="UTF-16"?>
<Task version="1.2" xmlns="http://schemas.microsoft.com/windows/2004/02/mit/task">
  <RegistrationInfo><Description>Trust assistant (desktop trust agent of the trust console), 127.0.0.1:8900</Description></RegistrationInfo>
  <Triggers><LogonTrigger><Enabled>true</Enabled><UserId>$(& $escape $user)</UserId></LogonTrigger></Triggers>
  <Principals><Principal id="Author"><UserId>$(& $escape $user)</UserId><LogonType>InteractiveToken</LogonType><RunLevel>LeastPrivilege</RunLevel></Principal></Principals>
  <Settings>
    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>
    <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>
    <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>
    <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>
    <RestartOnFailure><Interval>PT1M</Interval><Count>3</Count></RestartOnFailure>
    <Enabled>true</Enabled>
  </Settings>
  <Actions Context="Author"><Exec><Command>powershell.exe</Command><Arguments>$(& $escape $arguments)</Arguments><WorkingDirectory>$(& $escape $app)</WorkingDirectory></Exec></Actions>
</Task>
"@
$taskFile = Join-Path ([System.IO.Path]::GetTempPath()) 'trust-assistant-task.xml'
[System.IO.File]::WriteAllText($taskFile, $task, [System.Text.Encoding]::Unicode)
schtasks.exe /Create /TN $taskName /XML $taskFile /F | Out-Null
$registered = $LASTEXITCODE -eq 0
Remove-Item -LiteralPath $taskFile -Force

if ($registered) {
  schtasks.exe /Run /TN $taskName | Out-Null
  Write-Output "The trust assistant runs as the logon task '$taskName' (schtasks /Query /TN `"$taskName`")."
} else {
  # Where policy forbids the user's own tasks: a shortcut in the Startup folder, and a start now.
  $startup = [Environment]::GetFolderPath('Startup')
  $shell = New-Object -ComObject WScript.Shell
  $shortcut = $shell.CreateShortcut((Join-Path $startup 'Trust Assistant.lnk'))
  $shortcut.TargetPath = $executable
  $shortcut.WorkingDirectory = $app
  $shortcut.WindowStyle = 7
  $shortcut.Save()
  Start-Process -FilePath $executable -WorkingDirectory $app -WindowStyle Hidden
  Write-Output "The task could not be registered: the trust assistant starts from the Startup folder at every sign-in, and runs now."
}
