"""The 长沙 (Changsha) family's simulator parts: scenes and worked examples."""
