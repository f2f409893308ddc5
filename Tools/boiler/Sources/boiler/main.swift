// Placeholder for the boiler CLI; its commands arrive with issue #11.
print("boiler: commands arrive with the boiler CLI issue")
