@echo off
rem Installs the trust assistant for the signed-in user: runs install.ps1 beside this file, which
rem Windows does not run on a double-click. Arguments go through: install.cmd -Origin https://console.example.com
powershell.exe -NoProfile -ExecutionPolicy Bypass -File "%~dp0install.ps1" %*
if errorlevel 1 pause
